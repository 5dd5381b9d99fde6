// German names for the clock's formats.
const locale = {
  name: "de",
  weekdays: "Sonntag_Montag_Dienstag_Mittwoch_Donnerstag_Freitag_Samstag".split("_"),
  months: "Januar_Februar_März_April_Mai_Juni_Juli_August_September_Oktober_November_Dezember".split("_"),
  /** ordinal writes a day of the month as German does: 3. */
  ordinal: (n) => `${n}.`,
  meridiem(hour) {
    return hour < 12 ? "vorm." : "nachm.";
  },
  relativeTime: {
    future: "in %s",
    past: "vor %s",
  },
};

export default locale;
