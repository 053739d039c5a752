import { ArrayMaxSize, ArrayUnique, IsArray, IsEmail, IsIn, IsISO8601, IsOptional, IsString, Length, Matches, ValidateIf, registerDecorator, type ValidationOptions } from 'class-validator';
import { IsE164 } from './validators';

export const MAX_CONTACT_ATTRIBUTES = 50;
export const MAX_CONTACT_TAGS = 50;
const ATTRIBUTE_KEY = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const MAX_ATTRIBUTE_TEXT = 1000;
const ATTRIBUTES_RULE = `attributes must be an object of at most ${MAX_CONTACT_ATTRIBUTES} keys (letters, digits, _ . -; up to 64) whose values are strings (up to ${MAX_ATTRIBUTE_TEXT} characters), finite numbers or booleans`;

/** Why `value` is not valid `attributes` (CONTRACT.md §14), or null when it is. */
export function attributesError(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ATTRIBUTES_RULE;
  const entries = Object.entries(value);
  if (entries.length > MAX_CONTACT_ATTRIBUTES) return `attributes must have at most ${MAX_CONTACT_ATTRIBUTES} keys (got ${entries.length})`;
  for (const [key, v] of entries) {
    if (!ATTRIBUTE_KEY.test(key)) return `attributes key "${key.slice(0, 80)}" must be 1 to 64 letters, digits, _ . or - (not starting with . or -)`;
    const ok = typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length <= MAX_ATTRIBUTE_TEXT);
    if (!ok) return `attributes.${key} must be a string (up to ${MAX_ATTRIBUTE_TEXT} characters), a finite number or a boolean`;
  }
  return null;
}

export function IsContactAttributes(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isContactAttributes',
      target: object.constructor,
      propertyName,
      options,
      validator: { validate: (value: unknown) => attributesError(value) === null, defaultMessage: (args) => attributesError(args?.value) ?? ATTRIBUTES_RULE },
    });
}

const TAG_RULE = 'tags must be distinct strings of 1 to 50 characters';

/** What a contact has besides its identity; the same rules on create and update. */
abstract class ContactFields {
  @IsOptional()
  @IsArray({ message: TAG_RULE })
  @ArrayMaxSize(MAX_CONTACT_TAGS, { message: `tags must have at most ${MAX_CONTACT_TAGS} entries` })
  @ArrayUnique({ message: TAG_RULE })
  @IsString({ each: true, message: TAG_RULE })
  @Length(1, 50, { each: true, message: TAG_RULE })
  tags?: string[];

  @IsOptional()
  @IsContactAttributes()
  attributes?: Record<string, string | number | boolean>;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `POST /api/v1/contacts` (CONTRACT.md §14). A phone number belongs to one contact per tenant (409 otherwise). */
export class CreateContactBody extends ContactFields {
  @IsOptional()
  @IsE164()
  phone?: string;

  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  @Length(1, 254)
  email?: string;

  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @IsOptional()
  @Matches(/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'company_id must be a company id (cmp_…)' })
  company_id?: string;
}

/** Body of `PATCH /api/v1/contacts/{id}`: only the fields given change; `null` clears phone, email, name or company_id. */
export class UpdateContactBody extends ContactFields {
  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsE164()
  phone?: string | null;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsEmail({}, { message: 'email must be an email address' })
  @Length(1, 254)
  email?: string | null;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @IsString()
  @Length(1, 200)
  name?: string | null;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @Matches(/^cmp_[0-9A-HJKMNP-TV-Z]{26}$/, { message: 'company_id must be a company id (cmp_…)' })
  company_id?: string | null;
}

const DOMAIN_RULE = 'domain must be a domain name such as example.com';
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Body of `POST /api/v1/companies` (CONTRACT.md §14). */
export class CreateCompanyBody {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsOptional()
  @Matches(DOMAIN, { message: DOMAIN_RULE })
  domain?: string;

  @IsOptional()
  @IsContactAttributes()
  attributes?: Record<string, string | number | boolean>;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `PATCH /api/v1/companies/{id}`: only the fields given change; `domain: null` clears it. */
export class UpdateCompanyBody {
  @IsOptional()
  @IsString()
  @Length(1, 200)
  name?: string;

  @ValidateIf((_, v) => v !== null && v !== undefined)
  @Matches(DOMAIN, { message: DOMAIN_RULE })
  domain?: string | null;

  @IsOptional()
  @IsContactAttributes()
  attributes?: Record<string, string | number | boolean>;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

export const HAND_MADE_ACTIVITY_TYPES = ['note', 'call', 'task'] as const;

/** Body of `POST /api/v1/contacts/{id}/activities` (CONTRACT.md §14): a note, call or task added by hand. */
export class CreateContactActivityBody {
  @IsIn(HAND_MADE_ACTIVITY_TYPES, { message: 'type must be one of note, call, task' })
  type!: (typeof HAND_MADE_ACTIVITY_TYPES)[number];

  @IsString()
  @Length(1, 5000, { message: 'text must be 1 to 5000 characters' })
  text!: string;

  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'due_at must be an ISO 8601 date-time, e.g. 2025-01-02T03:04:05Z' })
  due_at?: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
