// Renderer entry: loads the styles, sets the system's theme before the first paint (the saved choice follows with
// the settings), and mounts the Svelte app into index.html.
import { mount } from 'svelte';
import './styles/app.css';
import App from './App.svelte';
import { applyTheme } from './lib/theme.ts';

applyTheme('system');

const target = document.getElementById('app');
if (!target) throw new Error('index.html has no #app element');

mount(App, { target });
