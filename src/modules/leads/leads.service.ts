import type { Kysely, Transaction } from 'kysely';
import { isForeignKeyViolation } from '../../db/dialect/index.js';
import { recordEvent } from '../../db/domain-events.js';
import type { DB, LeadTarget } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { type Language, supportedLanguage } from '../../i18n/index.js';
import { enqueue } from '../../db/outbox.js';
import { nowIso } from '../../lib/time.js';
import { canSeeAgent, type DirectoryServices } from '../directory/index.js';
import { assertCanView, canView, type PropertiesService } from '../properties/index.js';
import type { Notifier } from '../notifications/index.js';
import { cleanContact } from './lead-input.js';
import { leadMail, type LeadSubject } from './lead-mail.js';
import { type LeadProperty, toLead } from './leads.mapper.js';
import * as repository from './leads.repository.js';
import type { ContactCard, ListingContactRule } from './leads.repository.js';
import type { ContactInput, ContactResultRecord, LeadListRecord, LeadRecord, LeadsInput } from './leads.schemas.js';

/** The listing, agent or agency a contact form is sent to. */
export interface ContactTarget {
  type: LeadTarget;
  id: number;
}

/** A user a lead is addressed to, and where and in which language they get its mail. */
interface Recipient {
  userId: number;
  email: string;
  language: string | null;
}

/**
 * Leads (docs/api.md 6.3): contact forms of listings, agents and agencies, stored for their recipients, mailed to
 * them through the outbox (unless they turned `new_lead` e-mails off) and announced by a `new_lead` domain event, all in the transaction of the lead.
 */
export class LeadsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
    private readonly agents: Pick<DirectoryServices['agents'], 'findAccess'>,
    private readonly notifier: Pick<Notifier, 'emailOptOuts'>,
  ) {}

  /**
   * Stores a lead to a target the caller may see (else 404) and mails each recipient in their language (else
   * `requestLanguage`). A target whose recipients have all deleted their accounts still gets the lead stored,
   * addressed to nobody and mailed to nobody.
   */
  async contact(
    caller: AuthUser | null,
    target: ContactTarget,
    input: ContactInput,
    requestLanguage: Language,
  ): Promise<ContactResultRecord> {
    const contact = cleanContact(input);
    const listing = target.type === 'property' ? await this.visibleListing(caller, target.id) : undefined;
    if (target.type === 'agent') await this.assertAgentVisible(caller, target.id);
    const now = new Date();
    try {
      const leadId = await this.db.transaction().execute(async (trx) => {
        const { about, cards } = await this.addressees(trx, target, listing);
        const recipients = recipientsOf(cards);
        const id = await repository.insertLead(
          trx,
          { targetType: target.type, targetId: target.id, senderUserId: caller?.id ?? null, ...contact, createdAt: nowIso(now) },
          recipients.map((recipient) => recipient.userId),
        );
        // A recipient who turned `new_lead` e-mails off (docs/api.md 8 preferences) reads the lead in the app only.
        const optedOut = await this.notifier.emailOptOuts(
          trx,
          recipients.map((recipient) => recipient.userId),
          'new_lead',
        );
        for (const recipient of recipients.filter((r) => !optedOut.has(r.userId))) {
          const language = supportedLanguage(recipient.language ?? undefined) ?? requestLanguage;
          await enqueue(
            trx,
            {
              channel: 'email',
              idempotencyKey: `lead:${id}:${recipient.userId}`,
              payload: leadMail(recipient.email, language, about, contact),
            },
            now,
          );
        }
        await recordEvent(
          trx,
          'new_lead',
          {
            lead_id: id,
            target_type: target.type,
            target_id: target.id,
            recipient_user_ids: recipients.map((recipient) => recipient.userId),
          },
          now,
        );
        return id;
      });
      return { lead_id: leadId };
    } catch (error) {
      // The target (or a recipient's account) was deleted after the checks above: the insert met its key.
      if (isForeignKeyViolation(error)) throw AppError.notFound();
      throw error;
    }
  }

  /** The leads addressed to the caller, newest first; a page in a fixed number of queries. */
  async leadsOf(caller: AuthUser, query: LeadsInput): Promise<LeadListRecord> {
    const window = pageWindow(query);
    const page = await repository.findLeadPage(this.db, caller.id, window);
    const listingIds = [...new Set(page.rows.flatMap((row) => (row.property_id === null ? [] : [row.property_id])))];
    const listings = new Map<number, LeadProperty>();
    for (const { record, access } of await this.properties.loadSummaries(listingIds)) {
      // A listing the caller can no longer see (e.g. back to pending, not theirs) is not shown as it is now.
      if (canView(caller, access)) listings.set(record.id, record);
    }
    return {
      leads: page.rows.map((row) => toLead(row, row.property_id === null ? undefined : listings.get(row.property_id))),
      pagination: paginationOf(page.total, window),
    };
  }

  /**
   * The leads among `ids` that exist, as an administrator reads them (with the listing of a listing lead, whatever
   * its state), by id: what the outbound webhooks send as `lead.created`. A fixed number of queries.
   */
  async recordsOf(ids: readonly number[]): Promise<Map<number, LeadRecord>> {
    const rows = await repository.findLeadsByIds(this.db, ids);
    const listingIds = [...new Set(rows.flatMap((row) => (row.property_id === null ? [] : [row.property_id])))];
    const listings = new Map<number, LeadProperty>();
    for (const { record } of await this.properties.loadSummaries(listingIds)) listings.set(record.id, record);
    return new Map(rows.map((row) => [row.id, toLead(row, row.property_id === null ? undefined : listings.get(row.property_id))]));
  }

  /** The listing as the mail names it; 404 unless the caller may see it (sold listings included). */
  private async visibleListing(caller: AuthUser | null, id: number): Promise<LeadSubject> {
    const [loaded] = await this.properties.loadSummaries([id]);
    assertCanView(caller, loaded?.access);
    return { kind: 'property', title: loaded!.record.title, url: loaded!.record.url };
  }

  private async assertAgentVisible(caller: AuthUser | null, id: number): Promise<void> {
    const agent = await this.agents.findAccess(id);
    if (!agent || !canSeeAgent(caller, agent)) throw AppError.notFound();
  }

  /** What the mail names, and the records whose accounts the lead is addressed to. */
  private async addressees(
    trx: Transaction<DB>,
    target: ContactTarget,
    listing: LeadSubject | undefined,
  ): Promise<{ about: LeadSubject; cards: ContactCard[] }> {
    if (target.type === 'property') {
      const rule = await repository.findListingContactRule(trx, target.id);
      if (!rule) throw AppError.notFound();
      return { about: listing!, cards: await listingCards(trx, rule) };
    }
    const card = target.type === 'agent' ? await repository.findAgentCard(trx, target.id) : await repository.findAgencyCard(trx, target.id);
    if (!card) throw AppError.notFound();
    return { about: { kind: 'profile', name: card.name }, cards: [card] };
  }
}

/**
 * A listing's recipients per its `agent_display`: its agents, its agency, or its author (`author_info` and
 * `none`). When none of the chosen records has an account left, the author hears about the lead instead.
 */
async function listingCards(trx: Transaction<DB>, rule: ListingContactRule): Promise<ContactCard[]> {
  let chosen: ContactCard[] = [];
  if (rule.agentDisplay === 'agent_info') chosen = await repository.findListingAgentCards(trx, rule.listingId);
  if (rule.agentDisplay === 'agency_info' && rule.agencyId !== null) {
    const agency = await repository.findAgencyCard(trx, rule.agencyId);
    if (agency) chosen = [agency];
  }
  // `author_info` and `none` choose nobody but the author, whom the other choices fall back to.
  if (chosen.some((card) => card.userId !== null)) return chosen;
  const author = rule.authorId === null ? undefined : await repository.findUserCard(trx, rule.authorId);
  return author ? [author] : [];
}

/** The accounts behind the cards, each once, mailed at the record's own address, else the account's. */
function recipientsOf(cards: readonly ContactCard[]): Recipient[] {
  const recipients = new Map<number, Recipient>();
  for (const card of cards) {
    if (card.userId === null || recipients.has(card.userId)) continue;
    recipients.set(card.userId, { userId: card.userId, email: card.email || card.userEmail!, language: card.userLanguage });
  }
  return [...recipients.values()];
}
