// jest swaps in its own console; oclif (and our stderr diagnostics) expect Node's.
import console from 'node:console'

globalThis.console = console
