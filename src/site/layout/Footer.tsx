import { dialable, unbrokenPhone } from '../components/phone.js';
import { layoutText } from './layout.text.js';
import type { PageContext } from '../page.js';
import { fill } from '../texts.js';

export function Footer({ ctx }: { ctx: PageContext }) {
  const t = layoutText[ctx.lang];
  const { brand } = ctx;
  const hasContact = brand.contactEmail !== '' || brand.contactPhone !== '' || brand.contactAddress !== '';
  return (
    <footer class="site-footer">
      <div class="wrap site-footer__inner">
        {hasContact ? (
          <address class="site-footer__contact">
            <strong>{t.contact}</strong>
            {brand.contactAddress ? <span>{brand.contactAddress}</span> : null}
            {brand.contactPhone ? <a href={`tel:${dialable(brand.contactPhone)}`}>{unbrokenPhone(brand.contactPhone)}</a> : null}
            {brand.contactEmail ? <a href={`mailto:${brand.contactEmail}`}>{brand.contactEmail}</a> : null}
          </address>
        ) : null}
        <p class="site-footer__rights">{fill(t.all_rights, { year: new Date().getUTCFullYear(), site: brand.siteName })}</p>
      </div>
    </footer>
  );
}
