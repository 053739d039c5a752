import { IsOptional, IsString, Length } from 'class-validator';

/** Body of `POST /api/v1/api-keys` (CONTRACT.md §2). */
export class CreateApiKeyBody {
  @IsOptional()
  @IsString()
  @Length(1, 100)
  name?: string;
}
