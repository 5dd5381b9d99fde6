import de from "./locale/de";

/** Clock holds a time of day in minutes. */
function Clock(minutes) {
  this.minutes = minutes;
}

const proto = Clock.prototype;

/** shift returns a clock moved by some minutes. */
proto.shift = function (delta) {
  return new Clock(this.minutes + delta);
};

proto.format = function (pattern) {
  return pattern.replace("H", String(this.hours())) + de.ordinal(this.minutes);
};

Clock.prototype.hours = function () {
  return Math.floor(this.minutes / 60);
};

Object.assign(proto, {
  /** minutesOfHour is the minutes past the hour. */
  minutesOfHour() {
    return this.minutes - this.hours() * 60;
  },
});

export default Clock;
