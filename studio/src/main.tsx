// The Studio's entry point: mounts the app into index.html's #app (the page has no inline script;
// CSP allows only this file).
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
