import { render } from 'preact';
import { App } from './app';
import { takeLoginTokenFromAddress } from './session';
import './styles.css';

// Before the app starts, so it finds the token a single sign-on brought as if the tab had it already.
takeLoginTokenFromAddress();

render(<App />, document.getElementById('app')!);
