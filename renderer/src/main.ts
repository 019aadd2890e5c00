import { mount } from 'svelte';
import { warmUpAudioOutput } from './lib/audio-output-warm-up';
import { warmUpFonts } from './lib/font-warm-up';
import { warmUpTimingSettings } from './lib/interaction/timing-settings';
import Root from './Root.svelte';
import './app.css';

const target = document.getElementById('app');
if (!target) throw new Error('renderer/index.html has no #app element to mount the app in.');
mount(Root, { target });
warmUpTimingSettings();
warmUpAudioOutput();
warmUpFonts();
