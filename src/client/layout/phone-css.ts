/**
 * The page frame's rules for phones (below 768 px, issue 31), for every page at once: a card's
 * title and its extra wrap onto two lines instead of squeezing the title to nothing; inline
 * filter forms, fields and media never grow wider than the screen; a drawer fits the window and
 * its title and buttons wrap the same way; wide descriptions scroll inside. Scoped to the frame's <main> and the drawers; the theme and global CSS stay elsewhere.
 */
export const PHONE_CSS = `
@media (max-width: 767.98px) {
  main .ant-card-head-wrapper { flex-wrap: wrap; row-gap: 4px; padding-block: 8px; }
  main .ant-card-head-title { flex: 1 1 auto; min-width: 0; white-space: normal; overflow: visible; }
  main .ant-card-extra { margin-inline-start: auto; max-width: 100%; white-space: normal; }
  main .ant-form-inline { flex-wrap: wrap; }
  main .ant-form-inline .ant-form-item { max-width: 100%; }
  main .ant-form-inline .ant-form-item-control-input-content > * { max-width: 100%; }
  main img, main video, .ant-drawer img, .ant-drawer video { max-width: 100%; height: auto; }
  main .ant-descriptions-view, .ant-drawer .ant-descriptions-view { overflow-x: auto; }
  .ant-drawer-left > .ant-drawer-content-wrapper, .ant-drawer-right > .ant-drawer-content-wrapper { max-width: 100vw; }
  main .ant-tabs-nav, .ant-drawer .ant-tabs-nav { max-width: 100%; }
  main .ant-select, main .ant-picker, main .ant-input-affix-wrapper, main .ant-input,
  .ant-drawer .ant-select, .ant-drawer .ant-picker, .ant-drawer .ant-input { max-width: 100%; }
  .ant-drawer-header { flex-wrap: wrap; row-gap: 8px; }
  .ant-drawer-header-title { flex: 1 1 60%; min-width: 0; }
  .ant-drawer-extra { margin-inline-start: auto; }
}
`;
