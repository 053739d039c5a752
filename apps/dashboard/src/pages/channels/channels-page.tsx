import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState, type ReactNode } from 'react';
import type { Agent, Channel, ChannelKind } from '../../api';
import { ErrorNotice, Loading } from '../../components/feedback';
import { PageHeader } from '../../components/page-header';
import { errorText } from '../../components/problem-text';
import { useAction } from '../../components/use-action';
import { useApi } from '../../session/session';
import { ChannelTest } from './channel-test';
import { ConnectEmail, ConnectSms, ConnectVoice } from './other-connect';
import { ConnectWhatsapp } from './whatsapp-connect';
import { DataTable } from '../../components/data-table';

/** Each kind of channel in the words of the page: its section, what one is called, and how to connect one. */
const KINDS: { kind: ChannelKind; title: string; open: string; one: string; many: string; hint: string; connect: (done: () => void) => ReactNode }[] = [
  { kind: 'whatsapp', title: 'WhatsApp', open: 'Connect a WhatsApp number', one: 'number', many: 'WhatsApp numbers', hint: 'Customers write to your business number on WhatsApp.', connect: (done) => <ConnectWhatsapp onConnected={done} /> },
  { kind: 'sms', title: 'SMS', open: 'Connect an SMS number', one: 'number', many: 'SMS numbers', hint: 'Text messages to and from a phone number.', connect: (done) => <ConnectSms onConnected={done} /> },
  { kind: 'email', title: 'Email', open: 'Connect an email address', one: 'address', many: 'email addresses', hint: 'Mail to an address of yours, answered by email.', connect: (done) => <ConnectEmail onConnected={done} /> },
  { kind: 'voice', title: 'Voice', open: 'Connect a voice number', one: 'number', many: 'voice numbers', hint: 'Phone calls answered by voice, put through to a person on request.', connect: (done) => <ConnectVoice onConnected={done} /> },
];

export const CHANNELS_KEY = ['channels'] as const;

/** Channels: every way customers reach the business, listed by kind, each connectable, testable and disconnectable here. */
export function ChannelsPage() {
  const api = useApi();
  const queryClient = useQueryClient();
  const channels = useQuery({ queryKey: CHANNELS_KEY, queryFn: () => api.listChannels() });
  const agents = useQuery({ queryKey: ['agents'], queryFn: () => api.listAgents() });
  const changed = useCallback(() => void queryClient.invalidateQueries({ queryKey: CHANNELS_KEY }), [queryClient]);

  return (
    <section>
      <PageHeader title="Channels">Where your customers reach you, and the AI agent that answers on each.</PageHeader>
      {channels.error && <ErrorNotice error={errorText(channels.error)} />}
      {channels.isPending ? (
        <Loading what="channels" />
      ) : (
        KINDS.map((k) => (
          <ChannelSection key={k.kind} kind={k} channels={(channels.data?.data ?? []).filter((c) => c.channel === k.kind)} agents={agents.data?.data ?? []} onChange={changed} />
        ))
      )}
    </section>
  );
}

function ChannelSection({ kind, channels, agents, onChange }: { kind: (typeof KINDS)[number]; channels: Channel[]; agents: Agent[]; onChange(): void }) {
  const [connecting, setConnecting] = useState(false);
  const id = `channels-${kind.kind}`;
  return (
    <section className="card channel-kind" aria-labelledby={id} data-testid={id}>
      <div className="row wrap">
        <h2 id={id} className="grow">
          {kind.title}
        </h2>
        <button type="button" className={connecting ? 'secondary' : undefined} aria-expanded={connecting} onClick={() => setConnecting((c) => !c)}>
          {kind.open}
        </button>
      </div>
      <p className="muted">{kind.hint}</p>
      {channels.length === 0 ? <p className="empty">No {kind.many} connected yet.</p> : <ChannelTable caption={`Connected ${kind.many}`} what={kind.one} channels={channels} agents={agents} onChange={onChange} />}
      {connecting && kind.connect(onChange)}
    </section>
  );
}

function ChannelTable({ caption, what, channels, agents, onChange }: { caption: string; what: string; channels: Channel[]; agents: Agent[]; onChange(): void }) {
  const api = useApi();
  const action = useAction();
  const [testing, setTesting] = useState<Channel | null>(null);
  const oldest = [...agents].sort((a, b) => a.created_at.localeCompare(b.created_at))[0];
  const setAgent = async (channel: Channel, agent: string) => {
    await action.run(() => api.updateChannel(channel.id, { agent: agent === '' ? null : agent }));
    onChange();
  };
  const disconnect = async (channel: Channel) => {
    if (!window.confirm(`Disconnect ${nameOf(channel)}? Customers who reach it are no longer answered.`)) return;
    await action.run(() => api.disconnectChannel(channel.id));
    onChange();
  };
  const heading = what === 'address' ? 'Address' : 'Number';
  return (
    <>
      <ErrorNotice error={action.error} />
      <div className="table-wrap">
        <DataTable
          stacked
          caption={caption}
          rows={channels}
          rowKey={(c) => c.id}
          rowProps={(c) => ({ 'data-testid': `channel-${nameOf(c)}`, 'data-channel': c.channel })}
          columns={[
            {
              header: heading,
              cell: (c) => (
                <>
                  {nameOf(c)} {c.is_default && c.channel === 'whatsapp' && <span className="badge">default</span>}
                </>
              ),
            },
            { header: 'Provider', cell: (c) => c.provider },
            { header: 'Status', cell: (c) => <span className={`status status-${c.status}`}>{c.status}</span> },
            {
              header: 'Answering AI agent',
              cell: (c) => (
                <>
                  <label className="visually-hidden" htmlFor={`agent-${c.id}`}>
                    AI agent answering {nameOf(c)}
                  </label>
                  <select id={`agent-${c.id}`} value={c.agent ?? ''} onChange={(e) => void setAgent(c, e.target.value)} disabled={action.pending}>
                    <option value="">{oldest ? `Default (${oldest.name})` : 'No AI agent yet'}</option>
                    {agents.map((a) => (
                      <option key={a.id} value={a.name}>
                        {a.name}
                      </option>
                    ))}
                  </select>
                </>
              ),
            },
            {
              header: 'Actions',
              hiddenHeader: true,
              cell: (c) => (
                <span className="row">
                  <button type="button" className="secondary button-small" aria-expanded={testing?.id === c.id} onClick={() => setTesting(testing?.id === c.id ? null : c)} aria-label={`Test ${nameOf(c)}`}>
                    Test
                  </button>
                  <button type="button" className="danger button-small" onClick={() => void disconnect(c)} disabled={action.pending} aria-label={`Disconnect ${nameOf(c)}`}>
                    Disconnect
                  </button>
                </span>
              ),
            },
          ]}
        />
      </div>
      {testing && <ChannelTest key={testing.id} channel={testing} name={nameOf(testing)} onClose={() => setTesting(null)} />}
    </>
  );
}

/** A channel as people know it: its number, or for email its address. */
const nameOf = (channel: Channel) => (channel.channel === 'email' ? (channel.address ?? channel.phone_number) : channel.phone_number);
