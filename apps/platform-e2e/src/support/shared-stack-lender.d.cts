export declare const LENDER_URL_VARIABLE: string;
export declare class SharedStackLender {
  listen(): Promise<void>;
  stop(): Promise<void>;
}
