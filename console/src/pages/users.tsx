import { useState } from 'preact/hooks';
import { api, ApiError } from '../api/client';
import type { Page, UserView } from '../api/types';
import type { PageProps } from '../app';
import { BudgetInputs, budgetDraftOf, budgetFieldsOf, budgetInputOfField, type BudgetDraft } from '../components/budget-inputs';
import { BudgetList } from '../components/budget-list';
import { CopyButton } from '../components/copy-button';
import { DataTable } from '../components/data-table';
import { EditForm } from '../components/edit-form';
import { Field, Notice, messageOf } from '../components/field';
import { Modal } from '../components/modal';
import { Pager } from '../components/pager';
import { useLoad } from '../components/use-load';
import { dateTime } from '../format';
import { loadPricing } from '../pricing';

const pageSize = 20;

/** A user's budgets over all its tokens, edited in a dialog; the user API checks them and names what is wrong. */
function UserBudgetsForm(props: { user: UserView; quotaPerUsd: number; onSaved: () => void; onCancel: () => void }) {
  const [draft, setDraft] = useState<BudgetDraft>(() => budgetDraftOf(props.user));
  const [errors, setErrors] = useState<Partial<Record<keyof BudgetDraft, string>>>({});
  const [formError, setFormError] = useState<string | undefined>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setErrors({});
    setFormError(undefined);
    try {
      await api('PUT', '/api/user/', { body: { id: props.user.id, ...budgetFieldsOf(draft) } });
      props.onSaved();
    } catch (error) {
      const input = error instanceof ApiError && error.field !== undefined ? budgetInputOfField[error.field] : undefined;
      if (input !== undefined) setErrors({ [input]: messageOf(error) });
      else setFormError(messageOf(error));
    }
  };
  return (
    <EditForm class="token-form" onSubmit={submit} error={formError} submitLabel="Save budgets" onCancel={props.onCancel}>
      <BudgetInputs draft={draft} quotaPerUsd={props.quotaPerUsd} errors={errors} onChange={(changes) => setDraft((previous) => ({ ...previous, ...changes }))} scope="all of the user's tokens together" />
    </EditForm>
  );
}

/** Users (admins): the list, create one (its login token is shown once), enable or disable, and set its budgets. */
export function Users(props: PageProps) {
  const [page, setPage] = useState(1);
  const users = useLoad(() => api<Page<UserView>>('GET', '/api/user/', { query: { p: page, size: pageSize } }), [page]);
  const [username, setUsername] = useState('');
  const [role, setRole] = useState<'user' | 'admin'>('user');
  const [fieldErrors, setFieldErrors] = useState<{ username?: string; role?: string }>({});
  const [created, setCreated] = useState<{ username: string; login_token: string } | undefined>();
  const [notice, setNotice] = useState<{ kind: 'error' | 'success'; text: string } | undefined>();
  const [editing, setEditing] = useState<UserView | undefined>();
  const pricing = useLoad(loadPricing, []);

  const create = async (event: Event) => {
    event.preventDefault();
    setFieldErrors({});
    setNotice(undefined);
    setCreated(undefined);
    try {
      const user = await api<UserView & { login_token: string }>('POST', '/api/user/', { body: { username: username.trim(), role } });
      setCreated({ username: user.username, login_token: user.login_token });
      setUsername('');
      users.reload();
    } catch (error) {
      if (error instanceof ApiError && (error.field === 'username' || error.field === 'role')) setFieldErrors({ [error.field]: error.message });
      else setNotice({ kind: 'error', text: messageOf(error) });
    }
  };
  const setStatus = async (user: UserView, status: 1 | 2) => {
    setNotice(undefined);
    try {
      await api('PUT', '/api/user/', { body: { id: user.id, status } });
      setNotice({ kind: 'success', text: `${user.username} is ${status === 1 ? 'enabled' : 'disabled'}.` });
      users.reload();
    } catch (error) {
      setNotice({ kind: 'error', text: messageOf(error) });
    }
  };

  return (
    <>
      <h1>Users</h1>
      <form class="filters" onSubmit={create} aria-labelledby="new-user">
        <h2 id="new-user" class="full">
          New user
        </h2>
        <Field label="Username" hint="1 to 64 letters, digits, dots, underscores or dashes." error={fieldErrors.username}>
          {(control) => <input {...control} value={username} autocomplete="off" onInput={(event) => setUsername(event.currentTarget.value)} />}
        </Field>
        <Field label="Role" error={fieldErrors.role}>
          {(control) => (
            <select {...control} value={role} onChange={(event) => setRole(event.currentTarget.value as 'user' | 'admin')}>
              <option value="user">user</option>
              <option value="admin">admin</option>
            </select>
          )}
        </Field>
        <div class="actions">
          <button type="submit" class="primary">
            Create user
          </button>
        </div>
      </form>
      {created !== undefined && (
        <Notice kind="success">
          <p>
            {created.username} is created. Its login token is shown this once: hand it over now.
          </p>
          <p class="key">
            <code>{created.login_token}</code> <CopyButton text={created.login_token} label="Copy login token" />
          </p>
        </Notice>
      )}
      {notice !== undefined && <Notice kind={notice.kind}>{notice.text}</Notice>}
      {users.error !== undefined && <Notice kind="error">{messageOf(users.error)}</Notice>}
      <DataTable caption="Users" class="users" columns={['Id', 'Username', 'Role', 'Status', 'Budgets', 'Created', 'Actions']}>
        {users.data?.items.map((user) => (
          <tr key={user.id} data-user={user.username}>
            <td data-label="Id">{user.id}</td>
            <td data-label="Username">{user.username}</td>
            <td data-label="Role">{user.role}</td>
            <td data-label="Status">
              <span class={`status status-${user.status}`}>{user.status === 1 ? 'enabled' : 'disabled'}</span>
            </td>
            <td data-label="Budgets">
              <BudgetList budgets={user.budgets} quotaPerUsd={pricing.data?.quota_per_usd} empty="none" />
            </td>
            <td data-label="Created">{user.created_time === undefined ? '—' : dateTime(user.created_time)}</td>
            <td data-label="Actions">
              <button type="button" class="small" disabled={pricing.data === undefined} onClick={() => setEditing(user)}>
                Budgets
              </button>{' '}
              {user.id === props.user.id ? (
                <span class="hint">you</span>
              ) : user.status === 1 ? (
                <button type="button" class="small danger" onClick={() => setStatus(user, 2)}>
                  Disable
                </button>
              ) : (
                <button type="button" class="small" onClick={() => setStatus(user, 1)}>
                  Enable
                </button>
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {users.data !== undefined && <Pager label="User pages" page={page} pageSize={pageSize} total={users.data.total} onPage={setPage} />}
      {editing !== undefined && pricing.data !== undefined && (
        <Modal title={`Budgets of ${editing.username}`} onClose={() => setEditing(undefined)}>
          <UserBudgetsForm
            user={editing}
            quotaPerUsd={pricing.data.quota_per_usd}
            onCancel={() => setEditing(undefined)}
            onSaved={() => {
              setNotice({ kind: 'success', text: `The budgets of ${editing.username} are saved.` });
              setEditing(undefined);
              users.reload();
            }}
          />
        </Modal>
      )}
    </>
  );
}
