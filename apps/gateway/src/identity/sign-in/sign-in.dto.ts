import { IsOptional, IsString, Length, Matches } from 'class-validator';

/** Body of `POST /auth/login` (CONTRACT.md §12). */
export class LoginBody {
  @IsString()
  @Length(1, 254)
  email!: string;

  @IsString()
  @Length(1, 200)
  password!: string;

  /** Which team to sign in to, for an email that is a member of several (otherwise the newest membership it matches). */
  @IsOptional()
  @Matches(/^ten_[0-9A-Z]{26}$/, { message: 'tenant_id must be a tenant id (ten_…)' })
  tenant_id?: string;
}

/** Body of `POST /auth/password-reset`. */
export class PasswordResetBody {
  @IsString()
  @Length(1, 254)
  email!: string;
}
