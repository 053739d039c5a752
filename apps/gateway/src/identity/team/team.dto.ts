import { MEMBER_ROLES } from '@parley/contracts';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, Length, Matches } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, PASSWORD_RULE } from '../sign-in/passwords';

const ROLE_RULE = { message: `role must be one of ${MEMBER_ROLES.join(', ')}` };
const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

/** Body of `POST /api/v1/team` (CONTRACT.md §12). */
export class InviteMemberBody {
  @Transform(trimmed)
  @IsEmail({}, { message: 'email must be an email address' })
  @Length(3, 254)
  email!: string;

  @IsString()
  @Length(1, 200)
  name!: string;

  @IsIn(MEMBER_ROLES, ROLE_RULE)
  role!: (typeof MEMBER_ROLES)[number];
}

/** Body of `PATCH /api/v1/team/{id}`. */
export class UpdateMemberBody {
  @IsIn(MEMBER_ROLES, ROLE_RULE)
  role!: (typeof MEMBER_ROLES)[number];
}

/** Body of `POST /api/v1/team/accept` and of `POST /auth/password-reset/confirm`: a link's token and the new password. */
export class SetPasswordBody {
  @IsString()
  @Length(1, 200)
  token!: string;

  @IsString()
  @Length(PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH, { message: PASSWORD_RULE })
  password!: string;
}

/** `GET /api/v1/team/accept?token=`: the invitation link's token. */
export class InvitationQuery {
  @Matches(/^[A-Za-z0-9_-]{1,200}$/, { message: 'token must be the token of the invitation link' })
  token!: string;
}
