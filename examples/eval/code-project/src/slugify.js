// Turns a title into a URL slug. (Deliberately buggy: an example task for `massgen eval`.)
exports.slugify = (title) => title.replace(/ /g, '-');
