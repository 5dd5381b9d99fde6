const util = require("util");

function Emitter() {
  this.handlers = {};
}

/** Registers a handler for an event. */
Emitter.prototype.on = function (name, fn) {
  (this.handlers[name] = this.handlers[name] || []).push(fn);
  return this;
};

Emitter.prototype.emit = function (name, value) {
  (this.handlers[name] || []).forEach((fn) => fn(value));
};

function Bus() {
  Emitter.call(this);
}
util.inherits(Bus, Emitter);

Bus.prototype.publish = function (value) {
  this.emit("message", value);
};

/** Buffers values and publishes them on a bus. */
class Queue {
  constructor() {
    this.bus = new Bus();
    this.items = [];
  }

  flush() {
    this.items.forEach((v) => this.bus.publish(v));
    this.items = [];
  }
}

module.exports = Bus;
module.exports.Queue = Queue;
