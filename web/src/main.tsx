import '@blueprintjs/core/lib/css/blueprint.css';
import './app/app.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { focusFirstInvalidOnSubmit } from './app/focusFirstInvalid';
import { loadIconsOneByOne } from './app/icons';
import { guardKeyboardClicks } from './app/keyboardClickGuard';
import { createStore } from './app/store';

loadIconsOneByOne();
guardKeyboardClicks();
focusFirstInvalidOnSubmit();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <App store={createStore()} />
  </StrictMode>,
);
