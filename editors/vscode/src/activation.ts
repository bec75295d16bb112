// When the extension starts the language server by itself. The server
// ingests every Markdown file of the workspace, so opening any repository
// with a README must not start it: only a workspace that has a .mrpvm
// folder (the marker `mrpvm` itself creates and reads its configuration
// from) or a user who set mrpvm.enable gets it with the window. Everyone
// else gets it on the first MRP-VM command, @mrpvm chat request or tool
// call. Pure, tested under Node.

/** What the decision looks at. */
export interface StartInputs {
  /** The mrpvm.enable setting. */
  enabled: boolean;
  /** Whether some workspace folder holds a .mrpvm folder. */
  hasMrpvmFolder: boolean;
  /** Number of file workspace folders open. */
  folders: number;
}

/** Reports whether the server starts when the window opens. */
export function shouldStartServer(i: StartInputs): boolean {
  if (i.folders === 0) return false;
  return i.enabled || i.hasMrpvmFolder;
}
