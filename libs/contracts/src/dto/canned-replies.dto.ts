import { IsOptional, IsString, Length, Matches, registerDecorator, type ValidationOptions } from 'class-validator';

/** The variables a canned reply may hold (CONTRACT.md §18), filled in when a person inserts it. */
export const CANNED_REPLY_VARIABLES = ['contact.name', 'agent.name'] as const;
export type CannedReplyVariable = (typeof CANNED_REPLY_VARIABLES)[number];

/** What a person types after `/` to find it: lower-case letters, digits, `-` and `_`, 1 to 32 of them. */
export const CANNED_REPLY_SHORTCUT = /^[a-z0-9][a-z0-9_-]{0,31}$/;
const SHORTCUT_RULE = 'shortcut must be 1 to 32 lower-case letters, digits, "-" or "_", starting with a letter or digit (e.g. "opening-hours")';
const TEXT_RULE = 'text must be a string of 1 to 4096 characters';

/** The `{{…}}` placeholders of a text that are not one of CANNED_REPLY_VARIABLES (spaces inside the braces allowed). */
export function unknownCannedReplyVariables(text: string): string[] {
  const named = [...text.matchAll(/\{\{\s*([^{}]*?)\s*\}\}/g)].map((m) => m[1]);
  return [...new Set(named.filter((name) => !(CANNED_REPLY_VARIABLES as readonly string[]).includes(name)))];
}

function IsCannedReplyText(options?: ValidationOptions) {
  return (object: object, propertyName: string) =>
    registerDecorator({
      name: 'isCannedReplyText',
      target: object.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || unknownCannedReplyVariables(value).length === 0,
        defaultMessage: (args) =>
          `text may hold only the variables ${CANNED_REPLY_VARIABLES.map((v) => `{{${v}}}`).join(' and ')}; unknown: ${unknownCannedReplyVariables(String(args?.value))
            .map((v) => `{{${v}}}`)
            .join(', ')}`,
      },
    });
}

/** Body of `POST /api/v1/canned-replies` (CONTRACT.md §18). */
export class CreateCannedReplyBody {
  @IsString({ message: SHORTCUT_RULE })
  @Matches(CANNED_REPLY_SHORTCUT, { message: SHORTCUT_RULE })
  shortcut!: string;

  @IsString({ message: TEXT_RULE })
  @Length(1, 4096, { message: TEXT_RULE })
  @IsCannedReplyText()
  text!: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}

/** Body of `PATCH /api/v1/canned-replies/{id}`: only the fields given change. */
export class UpdateCannedReplyBody {
  @IsOptional()
  @IsString({ message: SHORTCUT_RULE })
  @Matches(CANNED_REPLY_SHORTCUT, { message: SHORTCUT_RULE })
  shortcut?: string;

  @IsOptional()
  @IsString({ message: TEXT_RULE })
  @Length(1, 4096, { message: TEXT_RULE })
  @IsCannedReplyText()
  text?: string;

  @IsOptional()
  @IsString()
  tenant_id?: string;
}
