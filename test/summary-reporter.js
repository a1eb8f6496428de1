// The spec reporter, plus the plain closing line CI reads: "N passed, N failed, N skipped".
'use strict';
const Mocha = require('mocha');

class SummaryReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const s = runner.stats;
      process.stdout.write(`\n${s.passes} passed, ${s.failures} failed, ${s.pending} skipped\n`);
    });
  }
}
module.exports = SummaryReporter;
