import { mount } from 'svelte';
import Root from './Root.svelte';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('renderer/index.html has no #app element to mount the app in.');
mount(Root, { target });
