import { HtmlValidate } from 'html-validate';
import { expect } from 'vitest';
import { type HTMLElement, parse } from 'node-html-parser';

/**
 * The website's pages as tests read them: validated (html-validate's recommended rules; Preact writes void
 * elements self-closed, which HTML allows) and parsed, with the parts search engines read.
 */
const validator = new HtmlValidate({
  extends: ['html-validate:recommended'],
  rules: { 'void-style': ['error', { style: 'selfclosing' }] },
});

/** Fails with every message html-validate gives for the page. */
export async function expectValidHtml(html: string, what = 'the page'): Promise<void> {
  const report = await validator.validateString(html);
  const messages = report.results.flatMap((result) => result.messages.map((m) => `${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
  expect(messages, `${what} is not valid HTML`).toEqual([]);
}

export interface ParsedPage {
  root: HTMLElement;
  title: string;
  canonical: string | undefined;
  /** hreflang → href of the alternate links. */
  alternates: Record<string, string>;
  robots: string | undefined;
  /** The JSON-LD objects of the page, parsed. */
  jsonLd: Record<string, unknown>[];
  meta(property: string): string | undefined;
}

export function parsePage(html: string): ParsedPage {
  const root = parse(html);
  const alternates: Record<string, string> = {};
  for (const link of root.querySelectorAll('link[rel="alternate"]'))
    alternates[link.getAttribute('hreflang')!] = link.getAttribute('href')!;
  return {
    root,
    title: root.querySelector('title')?.text ?? '',
    canonical: root.querySelector('link[rel="canonical"]')?.getAttribute('href'),
    alternates,
    robots: root.querySelector('meta[name="robots"]')?.getAttribute('content'),
    jsonLd: root
      .querySelectorAll('script[type="application/ld+json"]')
      .map((script) => JSON.parse(script.rawText) as Record<string, unknown>),
    meta: (property) =>
      (root.querySelector(`meta[property="${property}"]`) ?? root.querySelector(`meta[name="${property}"]`))?.getAttribute('content'),
  };
}
