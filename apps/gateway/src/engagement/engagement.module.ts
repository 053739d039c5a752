import { Module } from '@nestjs/common';

/**
 * Conversations, leads and appointments (CONTRACT.md §9): read from responder-service over request-reply.
 * Controllers are added here by the agents issue.
 */
@Module({ controllers: [], providers: [] })
export class EngagementModule {}
