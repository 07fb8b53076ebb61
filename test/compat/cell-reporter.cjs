// Prints the compatibility matrix after jest's own output: one line per cell (host × client · transport · era), then
// a closing count. A cell is one test; its describe block names the host.
class CellReporter {
  constructor() {
    this.cells = []
  }

  onTestResult(test, result) {
    // A file that could not run at all (a missing prefix, a syntax error) counts as one failed cell.
    if (result.testExecError) this.cells.push({name: `${test.path.split('/').pop()} (did not run)`, seconds: '0.0', status: 'failed'})
    for (const cell of result.testResults) {
      this.cells.push({
        name: [...cell.ancestorTitles, cell.title].join(' × '),
        seconds: ((cell.duration ?? 0) / 1000).toFixed(1),
        status: cell.status,
      })
    }
  }

  onRunComplete() {
    const failed = this.cells.filter((cell) => cell.status !== 'passed')
    const lines = this.cells.map((cell) => `${cell.status === 'passed' ? 'PASS' : 'FAIL'}  ${cell.name}  (${cell.seconds} s)`)
    process.stdout.write(`\ncompatibility matrix:\n${lines.join('\n')}\n`)
    process.stdout.write(`compat: ${this.cells.length - failed.length} of ${this.cells.length} cells passed${failed.length ? `, ${failed.length} failed` : ''}\n`)
  }
}

module.exports = CellReporter
