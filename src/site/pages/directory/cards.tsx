import type { AgencyRecord, AgentRecord } from '../../../modules/directory/index.js';
import type { MediaRecord } from '../../../modules/media/index.js';
import { RatingSummary } from '../../components/Reviews.js';
import type { PageContext } from '../../page.js';
import { agencyPath, agentPath } from '../../paths.js';
import { fill } from '../../texts.js';
import { directoryText } from './directory.text.js';
import { countOf, ProfileImage } from './profile-parts.js';

const CARD_SIZES = '(min-width: 64em) 6rem, 5rem';

/** An agent in a list: picture, name (the link), position, agency, listings and rating. */
export function AgentCard({
  ctx,
  agent,
  picture,
  headingLevel = 2,
  showAgency = true,
}: {
  ctx: PageContext;
  agent: AgentRecord;
  picture: MediaRecord | undefined;
  headingLevel?: 2 | 3;
  /** Off on the agency's own page, where every card would repeat it. */
  showAgency?: boolean;
}) {
  const t = directoryText[ctx.lang];
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article class="profile-card">
      <ProfileImage media={picture} name={agent.name} alt="" sizes={CARD_SIZES} className="profile-card__image" />
      <div class="profile-card__body">
        <Heading class="profile-card__name">
          <a href={ctx.path(agentPath(agent.slug))}>{agent.name}</a>
        </Heading>
        {agent.position ? <p class="profile-card__line">{agent.position}</p> : null}
        {showAgency && agent.agency ? <p class="profile-card__line muted">{fill(t.agent_at, { agency: agent.agency.name })}</p> : null}
        <p class="profile-card__line">{countOf(ctx, agent.properties_count, 'properties_one', 'properties_other')}</p>
        <p class="profile-card__line">
          <RatingSummary ctx={ctx} rating={agent.rating} count={agent.reviews_count} />
        </p>
      </div>
    </article>
  );
}

/** An agency in a list: logo, name (the link), agents, listings and rating. */
export function AgencyCard({ ctx, agency, logo }: { ctx: PageContext; agency: AgencyRecord; logo: MediaRecord | undefined }) {
  return (
    <article class="profile-card">
      <ProfileImage media={logo} name={agency.name} alt="" sizes={CARD_SIZES} className="profile-card__image profile-card__image--logo" />
      <div class="profile-card__body">
        <h2 class="profile-card__name">
          <a href={ctx.path(agencyPath(agency.slug))}>{agency.name}</a>
        </h2>
        {agency.address ? <p class="profile-card__line muted">{agency.address}</p> : null}
        <p class="profile-card__line">
          {countOf(ctx, agency.agents_count, 'agents_one', 'agents_other')} ·{' '}
          {countOf(ctx, agency.properties_count, 'properties_one', 'properties_other')}
        </p>
        <p class="profile-card__line">
          <RatingSummary ctx={ctx} rating={agency.rating} count={agency.reviews_count} />
        </p>
      </div>
    </article>
  );
}
