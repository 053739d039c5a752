import { IsEmail, IsOptional, IsString, Length, ValidateIf } from 'class-validator';

/**
 * Body of `POST /api/v1/accounts` (CONTRACT.md §2, §12). With `{email, password}` the creator also becomes the team's
 * `owner` and can sign in to the dashboard (`POST /auth/login`).
 */
export class CreateAccountBody {
  @IsString()
  @Length(1, 200)
  name!: string;

  /** Required with a password (the owner signs in with it). */
  @ValidateIf((body: CreateAccountBody) => body.email !== undefined || body.password !== undefined)
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;

  /** The owner's password: 10 to 200 characters (the gateway's password rule). */
  @IsOptional()
  @IsString()
  @Length(10, 200, { message: 'password must be 10 to 200 characters long' })
  password?: string;

  /** The owner's name as the team sees it (with a password); defaults to the part of the email before the @. */
  @IsOptional()
  @IsString()
  @Length(1, 200)
  owner_name?: string;
}
