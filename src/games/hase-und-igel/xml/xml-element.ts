/** A parsed or to-be-written XML element: attributes keep their order (the wire format depends on it). */
export interface XmlElement {
  readonly name: string;
  readonly attributes: readonly (readonly [string, string])[];
  readonly children: readonly XmlElement[];
  /** Character data directly inside the element (all runs joined); '' when none. */
  readonly text: string;
  /**
   * The element already written, at the depth it is written at (xml-writer.ts `prerendered`): an
   * element sent unchanged in every message is written once.
   */
  readonly rendered?: { readonly depth: number; readonly text: string };
}

/** Builds an element; attributes whose value is null or undefined are left out (as XStream omits null fields). */
export function el(
  name: string,
  attributes: Readonly<Record<string, string | number | boolean | null | undefined>> = {},
  children: readonly XmlElement[] = [],
  text = '',
): XmlElement {
  const pairs: [string, string][] = [];
  for (const [key, value] of Object.entries(attributes)) if (value !== null && value !== undefined) pairs.push([key, String(value)]);
  return { name, attributes: pairs, children, text };
}

export function attr(element: XmlElement, name: string): string | undefined {
  for (const [key, value] of element.attributes) if (key === name) return value;
  return undefined;
}

export function child(element: XmlElement, name: string): XmlElement | undefined {
  return element.children.find((c) => c.name === name);
}
