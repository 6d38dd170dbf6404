/** Entry point: styles (bundled by Vite into a .css asset, as the CSP requires) and the app. */
import { render } from 'preact';
import './styles/base.css';
import './styles/controls.css';
import './styles/timeline.css';
import './styles/detail-views.css';
import './styles/diff.css';
import { App } from './app.js';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
