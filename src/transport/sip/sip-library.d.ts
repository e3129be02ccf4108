/** The parts of the `sip` package used here: its URI and name-addr parsers. */
declare module 'sip' {
  export interface SipUri {
    schema: string;
    user?: string;
    password?: string;
    host: string;
    port: number;
    params: Record<string, string | null>;
    headers: Record<string, string>;
  }
  export function parseUri(s: string): SipUri | undefined;
  export function parseAOR(data: { s: string; i: number }): {
    name?: string;
    uri: string;
    params: Record<string, string | null>;
  };
}
