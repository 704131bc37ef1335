import Assembler from 'stream-json/assembler.js';
import { jsonParser, type Token } from 'stream-json/core/parser.js';
import { type FeedRecord, type FeedReader, FeedSyntaxError, type FeedWriter, PARSER_MESSAGE_MAX, shortened } from './feed-records.js';
import { memberOf, officeOf, propertyOf, recordOf, type ResoResource } from './reso-fields.js';
import { utf8Text } from './utf8-text.js';

/**
 * Listings, agents and agencies as RESO Data Dictionary JSON (docs/data-exchange.md, "RESO"): one object
 *
 *     { "@reso.context": "urn:reso:metadata:2.0:resource:property", "Office": [...], "Member": [...], "Property": [...] }
 *
 * written offices first, then members, then properties, so that a streaming reader knows the directory before
 * the listings. Each Property carries its pictures as an expanded `Media` array (RESO's `$expand=Media`). The
 * reader takes the three arrays in any order, and also an OData page `{ "value": [ ...Property... ] }`; other
 * top-level keys ("@odata.context", "@odata.nextLink") and unknown fields are ignored.
 *
 * | RESO field (Property)                  | FeedListing field       | Notes                                                                         |
 * | -------------------------------------- | ----------------------- | ----------------------------------------------------------------------------- |
 * | `ListingKey`                           | `key`                   | required                                                                      |
 * | `ListingId`                            | `reference`             |                                                                               |
 * | `StandardStatus`                       | `status`                | Active ↔ publish, Hold ↔ on_hold, Closed ↔ sold, Expired ↔ expired; read also: Pending and Active Under Contract → on_hold, Withdrawn and Canceled → expired, Coming Soon → draft. Listings in draft, pending or disapproved are not written |
 * | `ListPrice`                            | `price`                 |                                                                               |
 * | `PublicRemarks`                        | `description`           |                                                                               |
 * | `BedroomsTotal`                        | `bedrooms`              | integer                                                                       |
 * | `BathroomsTotalInteger`                | `bathrooms`             | integer                                                                       |
 * | `RoomsTotal`                           | `rooms`                 | integer                                                                       |
 * | `GarageSpaces`                         | `garage`                | integer                                                                       |
 * | `LivingArea`, `LivingAreaUnits`        | `size`, `size_unit`     | Square Feet ↔ sqft, Square Meters ↔ m2; read also: Acres (× 43,560 → sqft), Hectares (× 10,000 → m2) |
 * | `LotSizeArea`, `LotSizeUnits`          | `land_size`, `land_size_unit` | as LivingArea                                                           |
 * | `YearBuilt`                            | `year_built`            | integer                                                                       |
 * | `Latitude`, `Longitude`                | `latitude`, `longitude` |                                                                               |
 * | `UnparsedAddress`                      | `address`               |                                                                               |
 * | `PostalCode`                           | `zipcode`               |                                                                               |
 * | `Country` / `StateOrProvince` / `City` / `SubdivisionName` | `country` / `state` / `city` / `area` |                                       |
 * | `PropertyType`, `PropertySubType`      | `types[0]`, `types[1]`  | null for a missing one; `X_Realty_Types` carries the whole list when longer   |
 * | `ListAgentKey`, `CoListAgentKey`       | `agents[0]`, `agents[1]`| null for a missing one; `X_Realty_Agents` carries the whole list when longer  |
 * | `ListOfficeKey`                        | `agency`                |                                                                               |
 * | `VirtualTourURLUnbranded`              | `virtual_tour`          |                                                                               |
 * | `OriginalEntryTimestamp`               | `created_at`            | RFC 3339 date-time                                                            |
 * | `ModificationTimestamp`                | `updated_at`            | RFC 3339 date-time                                                            |
 * | `Media[]` `{ MediaKey, MediaURL, Order, MediaCategory }` | `images` | written: MediaKey "{key}-{n}", Order n from 1, MediaCategory "Photo"; read: items of category Photo (or none) by Order |
 * | `X_Realty_Title`                       | `title`                 | local extension (RESO has no title)                                           |
 * | `X_Realty_Currency`                    | `currency`              | local extension, ISO 4217                                                     |
 * | `X_Realty_SecondPrice`                 | `second_price`          | local extension                                                               |
 * | `X_Realty_PricePrefix`, `X_Realty_PricePostfix` | `price_prefix`, `price_postfix` | local extensions                                              |
 * | `X_Realty_GarageSize`                  | `garage_size`           | local extension                                                               |
 * | `X_Realty_Featured`                    | `featured`              | local extension, boolean                                                      |
 * | `X_Realty_VideoURL`                    | `video_url`             | local extension                                                               |
 * | `X_Realty_AgentDisplay`                | `agent_display`         | local extension: agent_info, agency_info, author_info or none                 |
 * | `X_Realty_Statuses`, `X_Realty_Labels`, `X_Realty_Features` | `statuses`, `labels`, `features` | local extensions, arrays of term names           |
 * | `X_Realty_Types`, `X_Realty_Agents`    | `types`, `agents`       | local extensions, written only for more than two; read, they win over the pair |
 * | `X_Realty_AdditionalFeatures`          | `additional_features`   | local extension, `[{ title, value }]`                                         |
 * | `X_Realty_FloorPlans`                  | `floor_plans`           | local extension, FeedFloorPlan objects with the API's field names             |
 *
 * | RESO field (Member)                    | FeedAgent field         | Notes                                                                         |
 * | -------------------------------------- | ----------------------- | ----------------------------------------------------------------------------- |
 * | `MemberKey`                            | `key`                   | required                                                                      |
 * | `MemberFullName`                       | `name`                  | required; read, else `MemberFirstName` + " " + `MemberLastName`               |
 * | `MemberEmail` / `MemberDirectPhone` / `MemberMobilePhone` / `JobTitle` | `email` / `phone` / `mobile` / `position` |                          |
 * | `OfficeKey`                            | `agency`                |                                                                               |
 *
 * | RESO field (Office)                    | FeedAgency field        | Notes                                                                         |
 * | -------------------------------------- | ----------------------- | ----------------------------------------------------------------------------- |
 * | `OfficeKey`                            | `key`                   | required                                                                      |
 * | `OfficeName`                           | `name`                  | required                                                                      |
 * | `OfficeEmail` / `OfficePhone` / `OfficeAddress1` | `email` / `phone` / `address` |                                                              |
 * | `X_Realty_Website`                     | `website`               | local extension (RESO keeps web addresses in its SocialMedia resource); read also: `SocialMediaWebsiteUrlOrId` |
 *
 * A field the record leaves out stays undefined (the import keeps the listing's own value). JSON null clears:
 * null where the field takes null, else "", [] or false; a null StandardStatus, unit or agent display is left
 * out. A Property's optional field of the wrong JSON type or with an unknown lookup value is left out with a
 * warning (reso-fields.ts); a required one (ListingKey, StandardStatus, X_Realty_Title), or any field of a Member
 * or Office, makes the record unreadable, naming the field, and reading goes on.
 */

const CONTEXT = 'urn:reso:metadata:2.0:resource:property';
const SLICE = 64 * 1024;

/** The top-level arrays read, and the resource their items are. */
const ARRAYS: Readonly<Record<string, ResoResource>> = { Office: 'Office', Member: 'Member', Property: 'Property', value: 'Property' };

export const readResoFeed: FeedReader = async function* (input) {
  // stream-json's tokenizer itself, called once per chunk: the chunk's tokens are walked before the next chunk is
  // read, so a syntax error surfaces after every record before it was handed out, and no token waits in a queue.
  const tokenize = jsonParser({ streamValues: false });
  const walk = new DocumentWalk();
  // Decoded by utf8Text, which also drops a byte-order mark (the bare tokenizer would take it for a stray character).
  for await (const text of utf8Text(input)) {
    // A whole file given as one chunk is still walked a slice at a time, so its tokens never all exist at once.
    for (let at = 0; at < text.length; at += SLICE) yield* walk.records(tokensOf(tokenize, text.slice(at, at + SLICE), walk));
  }
  // A space ends a literal or number the tokenizer holds back, as a flush would; that the object was closed, which
  // a flush would also check, the walk knows.
  yield* walk.records(tokensOf(tokenize, ' ', walk));
  walk.finish();
};

function tokensOf(tokenize: ReturnType<typeof jsonParser>, text: string, walk: DocumentWalk): readonly Token[] {
  if (text === '') return [];
  try {
    const tokens = tokenize(text);
    return typeof tokens === 'symbol' ? [] : tokens.values;
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^Parser (cannot parse input: |has )/, '') : String(error);
    const reason = shortened(message, PARSER_MESSAGE_MAX);
    // NOTE: a chunk's tokens come all at once or not at all, so the fault may lie further on than `at` (within one chunk).
    throw new FeedSyntaxError(walk.at, `is not valid JSON here or further on: ${reason}`);
  }
}

/**
 * Follows the parser's tokens through the document. Outside the arrays it only counts nesting; each array item
 * is assembled alone and handed on, so memory holds one record, however long the file.
 */
class DocumentWalk {
  /** Containers open around the current token, not counting those inside the item being assembled. */
  private depth = 0;
  private key: string | undefined;
  /** The array being read; undefined while skipping a value of another key. */
  private array: string | undefined;
  private index = 0;
  private item: Assembler | undefined;
  private arraysSeen = 0;
  private closed = false;

  /** Where the walk is, for a syntax error. */
  get at(): string {
    if (this.closed) return 'document';
    if (this.array !== undefined) return `${this.array}[${this.index}]`;
    return this.key === undefined ? 'document' : shortened(this.key);
  }

  *records(tokens: readonly Token[]): Iterable<FeedRecord> {
    for (const token of tokens) {
      const record = this.step(token);
      if (record) yield record;
    }
  }

  private step(token: Token): FeedRecord | undefined {
    if (this.item) return this.assemble(token);
    if (this.depth === 0) {
      if (token.name !== 'startObject') {
        throw new FeedSyntaxError('document', `must be a JSON object (RESO resources by name), not ${describe(token)}`);
      }
      this.depth = 1;
      return undefined;
    }
    if (this.depth === 1) return this.topLevel(token);
    if (this.depth === 2 && this.array !== undefined) {
      if (token.name === 'endArray') {
        this.depth = 1;
        this.array = undefined;
        return undefined;
      }
      this.item = new Assembler();
      return this.assemble(token);
    }
    if (token.name === 'startObject' || token.name === 'startArray') this.depth++;
    else if (token.name === 'endObject' || token.name === 'endArray') this.depth--;
    return undefined;
  }

  /** The document ended: it must have closed its object and held at least one array we read. */
  finish(): void {
    if (this.depth === 0 && !this.closed) throw new FeedSyntaxError('document', 'is not valid JSON: the document is empty');
    if (!this.closed) throw new FeedSyntaxError(this.at, 'is not valid JSON: the document ends before its object is closed');
    if (this.arraysSeen === 0) {
      throw new FeedSyntaxError('document', 'has none of the arrays Office, Member, Property or value: it is not a RESO feed');
    }
  }

  private topLevel(token: Token): FeedRecord | undefined {
    if (token.name === 'keyValue') {
      this.key = token.value;
      return undefined;
    }
    if (token.name === 'endObject') {
      this.depth = 0;
      this.closed = true;
      return undefined;
    }
    const key = this.key ?? '';
    const isArray = token.name === 'startArray';
    if (isArray || token.name === 'startObject') this.depth = 2;
    if (!Object.hasOwn(ARRAYS, key)) return undefined;
    this.arraysSeen++;
    if (isArray) {
      this.array = key;
      this.index = 0;
      return undefined;
    }
    return token.name === 'nullValue' ? undefined : { kind: 'unreadable', at: key, reason: 'must be of type array' };
  }

  private assemble(token: Token): FeedRecord | undefined {
    const item = this.item!;
    item.consume(token);
    if (!item.done) return undefined;
    this.item = undefined;
    const array = this.array!;
    return recordOf(ARRAYS[array]!, `${array}[${this.index++}]`, item.current);
  }
}

function describe(token: Token): string {
  switch (token.name) {
    case 'startArray':
      return 'an array';
    case 'stringValue':
      return 'a string';
    case 'numberValue':
      return 'a number';
    case 'nullValue':
      return 'null';
    default:
      return 'a boolean';
  }
}

/** The document in pieces: its head, one piece per record (each on its own line), the joints between arrays. */
export const writeResoFeed: FeedWriter = async function* ({ agencies, agents, listings }) {
  yield `{"@reso.context":${JSON.stringify(CONTEXT)},"Office":[`;
  yield* arrayItems(agencies, officeOf);
  yield '\n],"Member":[';
  yield* arrayItems(agents, memberOf);
  yield '\n],"Property":[';
  yield* arrayItems(listings, propertyOf);
  yield '\n]}\n';
};

async function* arrayItems<T>(records: AsyncIterable<T>, resoOf: (record: T) => object | undefined): AsyncIterable<string> {
  let first = true;
  for await (const record of records) {
    const item = resoOf(record);
    if (item === undefined) continue;
    yield `${first ? '' : ','}\n${JSON.stringify(item)}`;
    first = false;
  }
}
