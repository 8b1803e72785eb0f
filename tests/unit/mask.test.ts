/** maskPhone (src/shared/mask.ts): what replies show in place of a phone number. */
import { describe, expect, it } from "vitest";
import { isMaskedPhone, maskPhone } from "../../src/shared/mask";

describe("maskPhone", () => {
  it("keeps the first three and last four digits of a mobile number", () => {
    expect(maskPhone("13812345678")).toBe("138****5678");
    expect(maskPhone(" 13812345678 ")).toBe("138****5678");
  });

  it("masks landlines and international forms the same way, never showing the middle", () => {
    expect(maskPhone("010-12345678")).toBe("010****5678");
    expect(maskPhone("+8613812345678")).toBe("+86****5678");
    expect(maskPhone("0571-8888777")).toBe("057****8777");
  });

  it("shows less of a short number and nothing of a very short one", () => {
    expect(maskPhone("12345")).toBe("1****5");
    expect(maskPhone("1234567")).toBe("1****7");
    expect(maskPhone("1234")).toBe("****");
    expect(maskPhone("1")).toBe("****");
  });

  it("leaves null, undefined, blank and already masked values alone", () => {
    expect(maskPhone(null)).toBeNull();
    expect(maskPhone(undefined)).toBeUndefined();
    expect(maskPhone("")).toBe("");
    expect(maskPhone("138****5678")).toBe("138****5678");
  });

  it("tells a masked value from a typed number", () => {
    expect(isMaskedPhone("138****5678")).toBe(true);
    expect(isMaskedPhone(maskPhone("010-12345678"))).toBe(true);
    expect(isMaskedPhone("13812345678")).toBe(false);
    expect(isMaskedPhone(null)).toBe(false);
  });
});
