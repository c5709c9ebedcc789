// Renderer entry: loads the styles, sets the system's theme before the first paint (the saved choice follows with
// the settings), mounts the Svelte app into index.html, and makes the date format when the page is idle.
import { mount } from 'svelte';
import './styles/app.css';
import App from './App.svelte';
import { prepareTimeFormat } from './lib/format.ts';
import { applyTheme } from './lib/theme.ts';

applyTheme('system');

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

mount(App, { target });

// The History screen's times: made before the first click on it rather than after (Safari has no requestIdleCallback).
if ('requestIdleCallback' in window) requestIdleCallback(() => prepareTimeFormat());
else setTimeout(() => prepareTimeFormat(), 500);
