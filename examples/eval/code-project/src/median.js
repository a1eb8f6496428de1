// The median of a list of numbers. (Deliberately buggy: an example task for `massgen eval`.)
exports.median = (values) => {
  values.sort((a, b) => a - b);
  return values[Math.floor(values.length / 2)];
};
