/// <reference lib="dom" />
// The DOM’s types: the functions handed to page.evaluate in the browser suite run in the page.
import type { Page } from '@playwright/test';

// What a person would see wrong in a page's drawing, measured in the browser: form controls and
// icons drawn far larger than such things are (a checkbox with no stylesheet is drawn as its SVG
// check mark at the size of its container), and the UI library's elements whose stylesheet never
// arrived (every class Mantine puts on an element, `m_` and a hash, is defined by its
// component's stylesheet: a class no loaded rule names is a component drawn unstyled).

/** The largest a control or an icon is ever meant to be drawn, in CSS pixels. */
export const CONTROL_MAX_PX = 48;

/** Pictures meant to be large: charts, the QR code. */
const ARTWORK = '.recharts-wrapper, [data-testid="qr-code"]';

export type DrawingProblems = {
  /** Controls and icons larger than CONTROL_MAX_PX: what they are and their size. */
  oversized: string[];
  /** Mantine classes on the page that no loaded stylesheet defines, with an element bearing each. */
  unstyled: string[];
};

/** The drawing problems of the page as it is now (open dialogs and menus included). */
export async function drawingProblems(page: Page): Promise<DrawingProblems> {
  return page.evaluate(
    ({ max, artwork }) => {
      const describe = (el: Element) => {
        const label =
          el.getAttribute('aria-label') ??
          (el.id ? document.querySelector(`label[for="${CSS.escape(el.id)}"]`)?.textContent : null) ??
          el.closest('label')?.textContent ??
          el.parentElement?.textContent ??
          '';
        return `${el.tagName.toLowerCase()}${el.getAttribute('type') ? `[type=${el.getAttribute('type')}]` : ''} “${label.trim().slice(0, 40)}”`;
      };
      const oversized: string[] = [];
      const controls = document.querySelectorAll(
        'input[type=checkbox], input[type=radio], svg, .mantine-Switch-track, .mantine-Checkbox-inner, .mantine-Radio-inner',
      );
      for (const el of controls) {
        if (el.closest(artwork)) continue;
        // Not drawn at all: Mantine's switch lays a transparent input over its label.
        const style = getComputedStyle(el);
        if (style.opacity === '0' || style.visibility === 'hidden') continue;
        const box = el.getBoundingClientRect();
        if (box.width > max || box.height > max)
          oversized.push(`${describe(el)}: ${Math.round(box.width)}×${Math.round(box.height)} px`);
      }

      const defined = new Set<string>();
      const walk = (rules: CSSRuleList) => {
        for (const rule of rules) {
          if (rule instanceof CSSStyleRule) {
            for (const match of rule.selectorText.matchAll(/\.(m_[0-9a-f]{8})/g)) defined.add(match[1]!);
            if (rule.cssRules.length > 0) walk(rule.cssRules);
          } else if (rule instanceof CSSImportRule) {
            if (rule.styleSheet) walk(rule.styleSheet.cssRules);
          } else if ('cssRules' in rule) {
            walk((rule as CSSGroupingRule).cssRules);
          }
        }
      };
      for (const sheet of document.styleSheets) {
        try {
          walk(sheet.cssRules);
        } catch {
          // A sheet that did not load (or another origin's): its rules count as absent.
        }
      }
      const unstyled = new Map<string, string>();
      for (const el of document.querySelectorAll('[class*="m_"]')) {
        for (const name of el.classList) {
          if (/^m_[0-9a-f]{8}$/.test(name) && !defined.has(name) && !unstyled.has(name))
            unstyled.set(
              name,
              `${name} on ${describe(el)} (${[...el.classList].filter((c) => c.startsWith('mantine-')).join(' ')})`,
            );
        }
      }
      return { oversized, unstyled: [...unstyled.values()] };
    },
    { max: CONTROL_MAX_PX, artwork: ARTWORK },
  );
}
