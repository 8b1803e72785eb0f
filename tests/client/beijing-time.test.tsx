// @vitest-environment jsdom
/**
 * Issue 15: times are shown in Beijing time whatever the browser's zone. The test runs in New
 * York (process.env.TZ set before anything reads the clock): the formatting module and a date
 * picker still show Beijing dates and times.
 */
process.env.TZ = "America/New_York";
import { afterEach, describe, expect, test } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { Button, DatePicker } from "antd";
import dayjs from "dayjs";
import fc from "fast-check";
import { bj, bjDate, fmtDate, pickerIso, fmtShortTime, fmtTime, fmtTimeLabelled, fmtTimeSec } from "../../src/client/format";
import { AntdConfig } from "../../src/client/providers/antd-config";
import { greeting } from "../../src/client/usercenter/user-center";

afterEach(cleanup);

describe("Beijing time in a browser in New York", () => {
  test("the process really runs in New York", () => {
    expect(new Date("2026-07-20T17:30:00Z").getHours()).toBe(13);
  });

  test("the user centre greets by the hour in Beijing", () => {
    // 01:30 UTC is 09:30 in Beijing and 21:30 the evening before in New York.
    expect(greeting(new Date("2026-07-21T01:30:00Z"))).toBe("上午好");
    // 17:30 UTC is 01:30 the next night in Beijing, 13:30 in New York.
    expect(greeting(new Date("2026-07-20T17:30:00Z"))).toBe("夜深了");
    // 11:00 UTC is 19:00 in Beijing, 07:00 in New York.
    expect(greeting(new Date("2026-07-20T11:00:00Z"))).toBe("晚上好");
  });

  test("the formatting module shows Beijing time with its label", () => {
    // 17:30 UTC on 20 July is 01:30 on 21 July in Beijing (13:30 on 20 July in New York).
    expect(fmtTime("2026-07-20T17:30:00Z")).toBe("2026-07-21 01:30");
    expect(fmtShortTime("2026-07-20T17:30:00Z")).toBe("07-21 01:30");
    expect(fmtDate("2026-07-20T17:30:00Z")).toBe("2026-07-21");
    expect(fmtTimeLabelled("2026-07-20T17:30:00Z")).toBe("2026-07-21 01:30（北京时间）");
    expect(fmtTime(null)).toBe("—");
  });

  test("a picker value set to a Beijing day and hour is that moment, whatever the browser's zone", () => {
    const v = bj("2026-07-20T17:30:00Z");
    expect(v.hour()).toBe(1);
    const end = v.hour(23).minute(59).second(0).millisecond(0);
    expect(end.toISOString()).toBe("2026-07-21T15:59:00.000Z");
    expect(bjDate(v)).toBe("2026-07-21");
    expect(bj("2026-07-20T17:30:00Z").endOf("day").toISOString()).toBe("2026-07-21T15:59:59.999Z");
  });

  test("a date typed into a picker (parsed in the browser's zone) is sent as that Beijing time", () => {
    // antd parses typed text with dayjs in the browser's zone: 08:00 in New York.
    const typed = dayjs("2026-03-01 08:00", "YYYY-MM-DD HH:mm");
    expect(typed.toISOString()).toBe("2026-03-01T13:00:00.000Z");
    expect(pickerIso(typed)).toBe("2026-03-01T00:00:00.000Z");
    // a value the picker was given in Beijing time goes back unchanged
    expect(pickerIso(bj("2026-07-20T17:30:00Z"))).toBe("2026-07-20T17:30:00.000Z");
    expect(pickerIso(bj("2026-07-20T17:30:00Z").endOf("day"))).toBe("2026-07-21T15:59:59.999Z");
  });

  test("a DatePicker shows the Beijing date and time", () => {
    const { container } = render(
      <AntdConfig>
        <DatePicker showTime={{ format: "HH:mm" }} format="YYYY-MM-DD HH:mm" value={bj("2026-07-20T17:30:00Z")} />
      </AntdConfig>,
    );
    expect(container.querySelector("input")!.value).toBe("2026-07-21 01:30");
  });

  test("two-character button labels get no inserted space", () => {
    const { getByRole } = render(
      <AntdConfig>
        <Button>查询</Button>
      </AntdConfig>,
    );
    expect(getByRole("button").textContent).toBe("查询");
  });

  test("the table formatters show the Beijing wall clock of any zoned moment (checked against Intl)", () => {
    // The same moment written with another offset (by hand: dayjs's utcOffset is off by an hour
    // near the browser zone's daylight-saving change).
    const withOffset = (d: Date, minutes: number, suffix: string) =>
      new Date(d.getTime() + minutes * 60_000).toISOString().replace("Z", suffix);
    const clock = new Intl.DateTimeFormat("en-US", {
      timeZone: "Asia/Shanghai",
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    const shapes = [
      (d: Date) => d.toISOString(), // the server's: 2026-07-20T17:30:00.000Z
      (d: Date) => d.toISOString().replace(/\.\d+Z$/, "Z"),
      (d: Date) => withOffset(d, 480, "+08:00").replace(/\.\d+/, ""),
      (d: Date) => withOffset(d, -330, "-0530"),
    ];
    fc.assert(
      fc.property(
        fc.date({ min: new Date("1992-01-01T00:00:00Z"), max: new Date("2100-01-01T00:00:00Z"), noInvalidDate: true }),
        fc.nat(shapes.length - 1),
        (d, k) => {
          const second = new Date(Math.floor(d.getTime() / 1000) * 1000);
          const iso = shapes[k](second);
          const p = Object.fromEntries(clock.formatToParts(second).map((x) => [x.type, x.value]));
          expect(fmtTimeSec(iso), iso).toBe(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}`);
          expect(fmtTime(iso), iso).toBe(`${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`);
          expect(fmtDate(iso), iso).toBe(`${p.year}-${p.month}-${p.day}`);
          expect(fmtShortTime(iso), iso).toBe(`${p.month}-${p.day} ${p.hour}:${p.minute}`);
        },
      ),
      { numRuns: 3000 },
    );
    expect(fmtTime("2026-12-31T16:00:00.000Z")).toBe("2027-01-01 00:00");
    // The night New York's clocks go forward, Beijing's do not (dayjs's tz() showed 03:00 here).
    expect(fmtTime("2082-03-07T18:00:00.000Z")).toBe("2082-03-08 02:00");
    // Older moments go through the zone rules: China's daylight saving of 1986–1991.
    expect(fmtTime("1988-07-01T00:00:00Z")).toBe("1988-07-01 09:00");
    // A time without a zone is read in the browser's zone, as before (20:00 in New York).
    expect(fmtTime("2026-07-20T20:00:00")).toBe("2026-07-21 08:00");
  });
});
