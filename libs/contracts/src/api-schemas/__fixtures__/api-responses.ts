import type { Page } from '../../rpc/rpc-shapes';

/* Types exercising each of the API's tags, as the generation test feeds them to the generator. */

type Colour = 'red' | 'green';
type Shade = 'dark' | 'light';

/** A widget. */
export interface WidgetRecord {
  /** @idPrefix wdg */
  id: string;
  /** @idPrefix usr */
  owner: string | null;
  /** @idPrefix usr */
  watchers: string[];
  /**
   * How many.
   * @apiType integer
   */
  count: number;
  /** @apiType integer */
  limit: number | null;
  /** @apiFormat money */
  price: string;
  /** @apiFormat uri */
  link: string | null;
  /** @apiSchema {minimum: 1, maximum: 5} */
  stars: number;
  /**
   * Said to the events.
   * @apiDescription Said to the API.
   */
  note: string;
  colour: Colour | Shade;
  created_at: string;
  at: string | null;
}

export interface GadgetRecord {
  widget: WidgetRecord;
  spare: WidgetRecord | null;
  /** @apiSchema {examples: ['Europe/Madrid']} */
  timezone: string;
}

export interface FixtureResponses {
  Widget: WidgetRecord;
  WidgetPage: Page<WidgetRecord>;
  Gadget: GadgetRecord;
  Totals: { data: number[] };
}
