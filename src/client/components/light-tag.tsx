/**
 * antd's <Tag> as plain markup for table cells (issue 15): the same element and classes
 * (`ant-tag`, `ant-tag-<colour>`, the theme's hash class), so the same look, but no antd component
 * per tag — every antd Tag registers its CSS-in-JS styles (and a second component for its colour's
 * styles) while rendering, and a 20-row user list has 40–80 of them before its first row shows.
 * The styles are registered once by the TagStyles around the table, which also gives the classes.
 * Only what the cells use: a colour (preset, status or none) and text; a tag with anything else
 * (an icon, closable, a custom colour) is antd's own Tag.
 */
import { createContext, useContext, type ReactNode, type Ref } from "react";
import { ConfigProvider, Tag } from "antd";
import useTagStyle from "antd/es/tag/style";
import PresetCmp from "antd/es/tag/style/presetCmp";
import StatusCmp from "antd/es/tag/style/statusCmp";
import { isPresetColor, isPresetStatusColor } from "antd/es/_util/colors";

interface TagClasses {
  prefixCls: string;
  /** the theme's hash class and the CSS variables' class, as antd's Tag adds them */
  extra: string;
}

const TagClassContext = createContext<TagClasses | null>(null);

/** Registers the Tag styles (base, preset and status colours) once for the LightTags inside. */
export function TagStyles({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigProvider.ConfigContext);
  const prefixCls = getPrefixCls("tag");
  const [wrapCSSVar, hashId, cssVarCls] = useTagStyle(prefixCls);
  const classes: TagClasses = { prefixCls, extra: [hashId, cssVarCls].filter(Boolean).join(" ") };
  return wrapCSSVar(
    <TagClassContext.Provider value={classes}>
      <PresetCmp prefixCls={prefixCls} />
      <StatusCmp prefixCls={prefixCls} />
      {children}
    </TagClassContext.Provider>,
  );
}

type SpanProps = Omit<React.HTMLAttributes<HTMLSpanElement>, "color">;

/** <Tag color={color}>{children}</Tag> in plain markup (inside TagStyles; elsewhere antd's Tag). */
export function LightTag({
  color,
  children,
  ref,
  ...rest
}: SpanProps & { color?: string; children?: ReactNode; ref?: Ref<HTMLSpanElement> }) {
  const classes = useContext(TagClassContext);
  const known = !color || isPresetColor(color) || isPresetStatusColor(color);
  if (!classes || !known) {
    return (
      <Tag color={color} ref={ref} {...rest}>
        {children}
      </Tag>
    );
  }
  const className = [classes.prefixCls, color ? `${classes.prefixCls}-${color}` : "", classes.extra].filter(Boolean).join(" ");
  return (
    <span ref={ref} className={className} {...rest}>
      {children}
    </span>
  );
}
