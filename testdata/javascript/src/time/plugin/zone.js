/**
 * The zone plugin teaches clocks time zones: it receives the options, the
 * Clock class and the clock factory, and adds methods to them.
 */
export default (options, Clock, clock) => {
  const proto = Clock.prototype;
  const oldFormat = proto.format;

  /** tz moves the clock to a time zone. */
  proto.tz = function (zone) {
    return this.shift(zoneOffset(zone));
  };

  proto.format = function (pattern) {
    return oldFormat.call(this, pattern) + " " + this.zoneName();
  };

  proto.zoneName = function () {
    return options.zone || "UTC";
  };

  clock.tz = function (minutes, zone) {
    return clock(minutes).tz(zone);
  };
};

function zoneOffset(zone) {
  return zone === "UTC" ? 0 : 60;
}
