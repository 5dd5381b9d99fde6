// Namespaces every file of the project sees.
global using System;
global using System.Collections.Generic;
global using System.Linq;
global using System.Threading.Tasks;
global using Gateway.Logging;
