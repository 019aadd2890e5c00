/**
 * File > Export… and File > Download Recording… from the native menu, handed from the app shell
 * (which receives menu commands) to the call shown: the Calls view's export controls act on
 * a new request; with no call shown, the view says to open one first. Both read
 * {@link fileCommands} from the moment they are mounted.
 */
import { RequestChannel } from '../request-channel.svelte';

/** What a menu request asks for. */
export interface FileCommand {
  command: 'export' | 'download';
}

/** The native menu's requests to the call shown. */
export const fileCommands = new RequestChannel<FileCommand>();

/** Asks the call shown to export its transcript (the format is chosen there) or download its recording. */
export function requestFileCommand(command: FileCommand['command']): void {
  fileCommands.send({ command });
}
