#!/usr/bin/env node
// Runs the plugin standalone (as its own CLI); installed in a host CLI, the host's bin is used instead.
import {execute} from '@oclif/core'

await execute({dir: import.meta.url})
