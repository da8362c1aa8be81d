import type { components } from '../../../../generated/openapi.ts';
import { reason } from '../../../../lib/reasons.ts';
import { firstCharacters } from '../../../../lib/storable-text.ts';
import { contractCount } from '../../contract.ts';
import { overSmsLimit, SMS_MAX_LENGTH } from '../../domain/automation-chain.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { found } from '../../errors.ts';
import { type RuleIssue, rejectRules, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import type { Template } from './repository.ts';

type TemplateFields = Pick<Template, 'subject' | 'remetente_nome' | 'remetente_email' | 'body' | 'html' | 'message'>;
type TemplateInput = components['schemas']['TemplateUpdate'];

/**
 * How much of the message a template without a name or subject is named by: the contract's `TemplateCreate` ›
 * `name` › `x-default-length`, in code points.
 */
const NAME_FROM_MESSAGE_LENGTH = contractCount('#/components/schemas/TemplateCreate/properties/name/x-default-length');

/**
 * The fields of `input` that apply to `channel`; the others are null (section 2.6: email uses subject, sender,
 * body/html; sms and whatsapp use message).
 */
function fieldsFor(channel: Template['channel'], input: TemplateInput, base: TemplateFields): TemplateFields {
  const pick = <K extends keyof TemplateFields>(key: K): TemplateFields[K] =>
    (input[key] === undefined ? base[key] : input[key]) as TemplateFields[K];
  if (channel === 'email') {
    return {
      subject: pick('subject'),
      remetente_nome: pick('remetente_nome'),
      remetente_email: pick('remetente_email'),
      body: pick('body'),
      html: pick('html'),
      message: null,
    };
  }
  return {
    subject: null,
    remetente_nome: null,
    remetente_email: null,
    body: null,
    html: null,
    message: pick('message'),
  };
}

/** The channel's rules (section 2.6), each broken one naming its field. */
function checkChannelRules(channel: Template['channel'], fields: TemplateFields): void {
  const details: RuleIssue[] = [];
  const required = (key: keyof TemplateFields) => {
    if (fields[key] === null) {
      details.push(
        ruleViolation('template-channel-fields', key, reason('template-channel-fields.required', { channel })),
      );
    }
  };
  if (channel === 'email') {
    required('subject');
    required('remetente_nome');
    required('remetente_email');
    if (fields.body === null && fields.html === null) {
      details.push(
        ruleViolation('template-channel-fields', 'body', reason('template-channel-fields.email-body-or-html')),
      );
    }
  } else {
    required('message');
    if (channel === 'sms' && fields.message !== null && overSmsLimit(fields.message)) {
      details.push(ruleViolation('template-sms-length', 'message', { max: SMS_MAX_LENGTH }));
    }
  }
  rejectRules(details);
}

const EMPTY: TemplateFields = {
  subject: null,
  remetente_nome: null,
  remetente_email: null,
  body: null,
  html: null,
  message: null,
};

export const templateHandlers = {
  ...plainHandlers('templates', 'template', {
    listTemplates: 'list',
    getTemplateById: 'get',
    deleteTemplate: 'delete',
  }),

  async createTemplate({ storeId, body }, { repositories }) {
    const fields = fieldsFor(body.channel, body, EMPTY);
    checkChannelRules(body.channel, fields);
    const at = now();
    const template: Template = {
      id: newId(),
      storeId,
      channel: body.channel,
      name: body.name ?? fields.subject ?? firstCharacters(fields.message ?? '', NAME_FROM_MESSAGE_LENGTH),
      ...fields,
      createdAt: at,
      updatedAt: at,
    };
    await repositories.templates.createTemplate(template);
    return { status: 201, body: ok({ template }) };
  },

  async updateTemplate({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.templates.getTemplateById(storeId, path.templateId));
    const fields = fieldsFor(current.channel, body, current);
    checkChannelRules(current.channel, fields);
    const template: Template = { ...current, name: body.name ?? current.name, ...fields, updatedAt: now() };
    await repositories.templates.updateTemplate(template);
    return { status: 200, body: ok({ template }) };
  },
} satisfies Partial<Handlers>;
