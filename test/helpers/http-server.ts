// Moved: the scripted server is test/helpers/fault-server.ts's, with one SeenRequest type. This
// re-export only keeps tests written on other branches at the same time compiling; import from
// fault-server.js, and delete this file once nothing does.
export { reply, startScriptedServer, type FaultServer as ScriptedServer, type Responder, type SeenRequest } from './fault-server.js';
