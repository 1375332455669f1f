import DOMPurify from 'dompurify';

/**
 * HTML made by the page from text it does not control (a game's Markdown description), as nodes
 * safe to insert: DOMPurify removes scripts, event handler attributes and dangerous URLs. The
 * Markdown renderer already emits no raw HTML; this is the second lock on the same door, and the
 * one that holds if a renderer option or a plugin ever lets HTML through.
 */
export function sanitizedFragment(html: string): DocumentFragment {
  return DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    // Links that leave the page open in a new tab (the renderer adds rel="noopener noreferrer").
    ADD_ATTR: ['target'],
    // The Content-Security-Policy refuses inline styles; none should reach the page to be refused.
    FORBID_ATTR: ['style'],
    FORBID_TAGS: ['style'],
  });
}
