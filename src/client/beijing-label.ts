/** The label shown with times (a page's note, a sentence with a time). Without dayjs: the header of the light login entry shows it (format.ts re-exports it). */
export const BEIJING_LABEL = "北京时间";
