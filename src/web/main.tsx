import { render } from 'preact'
import { App } from './app.tsx'
import './desk.css'

render(<App />, document.getElementById('app')!)
