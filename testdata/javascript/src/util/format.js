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
