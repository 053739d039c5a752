import { Injectable } from '@nestjs/common';
import { QueueSignal } from '@parley/service-kit';

/** A conversation entered a team's queue (a handoff, a move to a team): wakes this instance's RoutingWorker. */
@Injectable()
export class RoutingQueued extends QueueSignal {}
