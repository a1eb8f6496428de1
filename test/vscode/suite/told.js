// Waiting for what the extension tells the user in a notification: a message shown just before a command resolves
// may reach the notification center a moment later.
'use strict';
const { until, notificationTexts } = require('./helpers');

/** The notification center's texts, once one of them matches `pattern` (fails after `ms`). */
function toldUntil(pattern, ms = 15000) {
  return until(async () => {
    const texts = (await notificationTexts()).join('\n');
    return pattern.test(texts) && texts;
  }, ms, `a notification matching ${pattern}`);
}

module.exports = { toldUntil };
