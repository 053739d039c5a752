import { IsEmail, IsOptional, IsString, Length } from 'class-validator';

/** Body of `POST /api/v1/accounts` (CONTRACT.md §2). */
export class CreateAccountBody {
  @IsString()
  @Length(1, 200)
  name!: string;

  @IsOptional()
  @IsEmail({}, { message: 'email must be an email address' })
  email?: string;
}
