/** Vitest setup for every test file: business areas plugged into the engine, as the server does at start. */
import { installServerAreas } from '#app/areas/index.server'

installServerAreas()
