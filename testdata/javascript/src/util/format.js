/**
 * Title-cases a string.
 */
function title(s) {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function capitalize(s) {
  return title(s.toLowerCase());
}

exports.pad = function pad(s, n) {
  return s.padStart(n);
};

module.exports = { title, capitalize, pad: exports.pad };

/**
 * Builds a formatter for a column width; its helpers are closures.
 */
function createFormatter(width) {
  const fit = (s) => pad(trim(s), width);
  return function format(s) {
    return fit(capitalize(s));
  };

  function trim(s) {
    return s.slice(0, width);
  }
}

module.exports.createFormatter = createFormatter;
