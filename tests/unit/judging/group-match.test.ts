import { describe, expect, it } from "vitest";
import { fits, pickGroup, type GroupScope } from "../../../src/server/judging/group-match";

const SOFT = 1;
const MEDIA = 7;
const WEB = 11;

describe("which judge group a work belongs in", () => {
  const groups: GroupScope[] = [
    { id: 1, category_id: SOFT, subcategory_id: null, group_type: null },
    { id: 2, category_id: SOFT, subcategory_id: WEB, group_type: null },
    { id: 3, category_id: MEDIA, subcategory_id: null, group_type: "professional" },
    { id: 4, category_id: MEDIA, subcategory_id: null, group_type: null },
  ];

  it("fits a group of the work's 大类 whose 小类 and 组别, where set, are the work's", () => {
    expect(fits(groups[0], { category_id: SOFT, subcategory_id: 12, group_type: "normal" })).toBe(true);
    expect(fits(groups[1], { category_id: SOFT, subcategory_id: 12, group_type: "normal" })).toBe(false);
    expect(fits(groups[2], { category_id: MEDIA, subcategory_id: null, group_type: "normal" })).toBe(false);
    expect(fits(groups[0], { category_id: MEDIA, subcategory_id: null, group_type: "normal" })).toBe(false);
  });

  it("prefers the most specific group, and returns null when none fits", () => {
    const sizes = new Map<number, number>();
    expect(pickGroup({ category_id: SOFT, subcategory_id: WEB, group_type: "normal" }, groups, sizes)).toBe(2);
    expect(pickGroup({ category_id: SOFT, subcategory_id: 12, group_type: "normal" }, groups, sizes)).toBe(1);
    expect(pickGroup({ category_id: MEDIA, subcategory_id: null, group_type: "professional" }, groups, sizes)).toBe(3);
    expect(pickGroup({ category_id: MEDIA, subcategory_id: null, group_type: "normal" }, groups, sizes)).toBe(4);
    expect(pickGroup({ category_id: 99, subcategory_id: null, group_type: "normal" }, groups, sizes)).toBeNull();
    expect([...sizes]).toEqual([
      [2, 1],
      [1, 1],
      [3, 1],
      [4, 1],
    ]);
  });

  it("splits a category over equally specific groups evenly, counting what they already hold", () => {
    const split: GroupScope[] = [10, 11, 12].map((id) => ({ id, category_id: SOFT, subcategory_id: null, group_type: null }));
    const sizes = new Map([[11, 2]]);
    const got = Array.from({ length: 7 }, () =>
      pickGroup({ category_id: SOFT, subcategory_id: null, group_type: "normal" }, split, sizes),
    );
    expect(got).toEqual([10, 12, 10, 12, 10, 11, 12]);
    expect(sizes).toEqual(
      new Map([
        [11, 3],
        [10, 3],
        [12, 3],
      ]),
    );
  });
});
