// The SDK clients (the official v2 client in both eras, the v1 SDK) over stdio and `mcp serve` against the fixture
// host on its own @oclif/core 5 and Node 22. The plugin is linked in as a user plugin and loads its own
// @oclif/core 4 from this repository's node_modules, as a plugin with its own core does inside a newer host.
import {describeSdkClients, FIXTURE5} from './cells.js'
import {HOST5, VERSIONS} from './hosts.js'

describeSdkClients(`host-core5 (@oclif/core ${VERSIONS.core5}, Node 22)`, HOST5, FIXTURE5)
