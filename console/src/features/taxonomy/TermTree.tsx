import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmButton } from '../../components/ConfirmButton';
import type { TaxonomyDefinition, TermRecord } from './taxonomies';
import type { TreeNode } from './tree';

/** Nested lists: the hierarchy is read out by screen readers as lists within list items ("level 2"). */
export function TermTree<T>({ label, nodes, render }: { label: string; nodes: TreeNode<T>[]; render: (node: TreeNode<T>) => ReactNode }) {
  const list = (items: TreeNode<T>[], top: boolean) => (
    <ul className={top ? 'taxonomy-tree' : undefined} aria-label={top ? label : undefined}>
      {items.map((node) => (
        <li key={node.key}>
          {render(node)}
          {node.children.length > 0 ? list(node.children, false) : null}
        </li>
      ))}
    </ul>
  );
  return nodes.length > 0 ? list(nodes, true) : null;
}

export function TermRow({
  term,
  definition,
  level,
  onEdit,
  onAddChild,
  addChildText,
  addChildLabel,
  onDelete,
}: {
  term: TermRecord;
  definition: TaxonomyDefinition;
  level?: string;
  onEdit: () => void;
  onAddChild: () => void;
  addChildText: string;
  addChildLabel: string;
  onDelete: () => void;
}) {
  const { t, i18n } = useTranslation();
  return (
    <div className="taxonomy-term">
      <span className="taxonomy-term-name">
        {definition.coloured && term.color ? (
          <span className="taxonomy-swatch" style={{ backgroundColor: term.color }} aria-hidden="true" />
        ) : null}
        <strong>{term.name}</strong>
        {level ? <span className="tag">{level}</span> : null}
        <code className="muted">{term.slug}</code>
        {definition.coloured && term.color ? <code className="muted">{term.color}</code> : null}
        <span className="muted">{t('taxonomy.listings', { number: term.count.toLocaleString(i18n.language) })}</span>
      </span>
      <span className="row taxonomy-term-actions">
        <button type="button" onClick={onEdit} aria-label={t('taxonomy.edit_named', { name: term.name })}>
          {t('taxonomy.edit')}
        </button>
        <button type="button" onClick={onAddChild} aria-label={addChildLabel}>
          {addChildText}
        </button>
        <ConfirmButton
          label={t('common.delete')}
          ariaLabel={t('taxonomy.delete_named', { name: term.name })}
          question={t('taxonomy.confirm_delete', { name: term.name })}
          confirmLabel={t('taxonomy.confirm_delete_button')}
          onConfirm={onDelete}
        />
      </span>
    </div>
  );
}
